import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { RunningSandbox } from "../../src/sandbox/index.js";
import { actionsWorldFile } from "../helpers/actions-world.js";
import { call, sandbox } from "../helpers/sandbox.js";
import { sealedBody } from "../helpers/sealed.js";

const READER = "sandbox-reader";
const REPO = "/repos/acme/api";
const running: RunningSandbox[] = [];

async function world(): Promise<RunningSandbox> {
  const started = await sandbox({ seed: actionsWorldFile() });
  running.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((each) => each.stop()));
});

async function publicKey(sb: RunningSandbox, list: string) {
  const answer = await call(sb, "GET", `${list}/public-key`);
  expect(answer.status).toBe(200);
  return answer.body as { key_id: string; key: string };
}

function sealed(sb: RunningSandbox, list: string, value: string) {
  return sealedBody((method, path) => call(sb, method, path), list, value);
}

async function digests(sb: RunningSandbox) {
  const answer = (await (await fetch(`${sb.url}/_sandbox/secrets`)).json()) as {
    secrets: Array<{ at: string; name: string; sha256: string }>;
  };
  return answer.secrets;
}

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex");

describe("secrets", () => {
  it("have a key pair per place, stable across reads, and 404 for an environment that is not there", async () => {
    const sb = await world();
    const lists = [
      `${REPO}/actions/secrets`,
      `${REPO}/dependabot/secrets`,
      `${REPO}/environments/production/secrets`,
      "/orgs/acme/actions/secrets",
      "/orgs/acme/dependabot/secrets",
    ];
    const keys = await Promise.all(lists.map((list) => publicKey(sb, list)));
    expect(new Set(keys.map((key) => key.key)).size).toBe(lists.length);
    expect(await publicKey(sb, lists[0]!)).toEqual(keys[0]);
    expect((await call(sb, "GET", `${REPO}/environments/nowhere/secrets/public-key`)).status).toBe(
      404,
    );
    expect(
      (await call(sb, "GET", `${REPO}/actions/secrets/public-key`, { token: READER })).status,
    ).toBe(403);
  });

  it("opens what it is sent, keeps only a digest, and refuses a value sealed under another key", async () => {
    const sb = await world();
    const list = `${REPO}/actions/secrets`;
    const created = await call(sb, "PUT", `${list}/deploy_key`, {
      body: await sealed(sb, list, "first value"),
    });
    expect([created.status, created.body]).toEqual([201, {}]);
    const updated = await call(sb, "PUT", `${list}/DEPLOY_KEY`, {
      body: await sealed(sb, list, "second value"),
    });
    expect(updated.status).toBe(204);
    expect(await digests(sb)).toContainEqual({
      at: list,
      name: "DEPLOY_KEY",
      sha256: sha256("second value"),
    });
    const listed = await call(sb, "GET", list);
    expect(listed.body.secrets.map((secret: { name: string }) => secret.name)).toEqual([
      "DEPLOY_KEY",
    ]);

    // Sealed under the Dependabot key, sent with the Actions key's id.
    const other = await sealed(sb, `${REPO}/dependabot/secrets`, "value");
    const { key_id } = await publicKey(sb, list);
    const wrongKey = await call(sb, "PUT", `${list}/OTHER`, {
      body: { encrypted_value: other.encrypted_value, key_id },
    });
    expect([wrongKey.status, wrongKey.body.message]).toEqual([
      422,
      "Bad request - validation failed due to an improperly encrypted secret",
    ]);
    const wrongId = await call(sb, "PUT", `${list}/OTHER`, {
      body: { ...(await sealed(sb, list, "value")), key_id: "1" },
    });
    expect(wrongId.status).toBe(422);
    const plain = await call(sb, "PUT", `${list}/OTHER`, {
      body: { encrypted_value: "not a box!", key_id },
    });
    expect(plain.status).toBe(422);
    expect((await call(sb, "GET", `${list}/OTHER`)).status).toBe(404);
    expect(
      (await call(sb, "PUT", `${list}/GITHUB_TOKEN`, { body: await sealed(sb, list, "x") })).status,
    ).toBe(422);
  });

  it("of an organization change their sharing without a value, and need one to be created", async () => {
    const sb = await world();
    const list = "/orgs/acme/actions/secrets";
    const before = (await digests(sb)).find((secret) => secret.name === "NPM_TOKEN");
    const shared = await call(sb, "PUT", `${list}/NPM_TOKEN`, {
      body: { visibility: "selected", selected_repository_ids: [1002] },
    });
    expect(shared.status).toBe(204);
    expect((await digests(sb)).find((secret) => secret.name === "NPM_TOKEN")).toEqual(before);
    const repos = await call(sb, "GET", `${list}/NPM_TOKEN/repositories`);
    expect(repos.body.repositories.map((repo: { name: string }) => repo.name)).toEqual(["web"]);
    expect((await call(sb, "PUT", `${list}/NEW_ONE`, { body: { visibility: "all" } })).status).toBe(
      422,
    );
    const notSelected = await call(sb, "PUT", `${list}/NPM_TOKEN`, { body: { visibility: "all" } });
    expect(notSelected.status).toBe(204);
    expect((await call(sb, "GET", `${list}/NPM_TOKEN/repositories`)).status).toBe(409);
  });
});

describe("variables", () => {
  it("are created, read, updated and deleted by name in either case; a name is refused or taken once", async () => {
    const sb = await world();
    const list = `${REPO}/environments/production/variables`;
    expect((await call(sb, "POST", list, { body: { name: "target", value: "prod" } })).status).toBe(
      201,
    );
    const again = await call(sb, "POST", list, { body: { name: "TARGET", value: "prod" } });
    expect(again.status).toBe(409);
    expect((await call(sb, "POST", list, { body: { name: "1ST", value: "x" } })).status).toBe(422);
    expect((await call(sb, "POST", list, { body: { name: "GITHUB_X", value: "x" } })).status).toBe(
      422,
    );
    expect(
      (await call(sb, "PATCH", `${list}/Target`, { body: { value: "production" } })).status,
    ).toBe(204);
    const read = await call(sb, "GET", `${list}/TARGET`);
    expect(read.body).toMatchObject({ name: "TARGET", value: "production" });
    expect((await call(sb, "DELETE", `${list}/target`)).status).toBe(204);
    expect((await call(sb, "GET", `${list}/TARGET`)).status).toBe(404);
  });

  it("list at most 30 a page", async () => {
    const sb = await world();
    const list = `${REPO}/actions/variables`;
    for (let index = 0; index < 34; index++) {
      await call(sb, "POST", list, { body: { name: `V${index}`, value: "x" } });
    }
    const page = await call(sb, "GET", `${list}?per_page=100`);
    expect(page.body.total_count).toBe(35);
    expect(page.body.variables).toHaveLength(30);
    expect(page.headers.get("link")).toContain('rel="next"');
  });
});

describe("Actions permissions", () => {
  it("take selected actions only once the policy is selected, and hide the policy while Actions is off", async () => {
    const sb = await world();
    const base = `${REPO}/actions/permissions`;
    const early = await call(sb, "PUT", `${base}/selected-actions`, {
      body: { verified_allowed: true },
    });
    expect(early.status).toBe(409);
    expect(
      (await call(sb, "PUT", base, { body: { enabled: true, allowed_actions: "selected" } }))
        .status,
    ).toBe(204);
    expect(
      (
        await call(sb, "PUT", `${base}/selected-actions`, {
          body: { patterns_allowed: ["acme/*"] },
        })
      ).status,
    ).toBe(204);
    expect((await call(sb, "GET", base)).body).toEqual({
      enabled: true,
      allowed_actions: "selected",
      selected_actions_url: `${sb.url}${base}/selected-actions`,
      sha_pinning_required: false,
    });
    expect((await call(sb, "PUT", base, { body: { enabled: false } })).status).toBe(204);
    expect((await call(sb, "GET", base)).body).toEqual({ enabled: false });
    const user = await call(sb, "PUT", `${base}/access`, { body: { access_level: "user" } });
    expect(user.status).toBe(422);
  });

  it("of an organization select repositories only under enabled_repositories: selected", async () => {
    const sb = await world();
    const base = "/orgs/acme/actions/permissions";
    const ids = { selected_repository_ids: [1001] };
    expect((await call(sb, "PUT", `${base}/repositories`, { body: ids })).status).toBe(409);
    expect(
      (await call(sb, "PUT", base, { body: { enabled_repositories: "selected" } })).status,
    ).toBe(204);
    expect((await call(sb, "PUT", `${base}/repositories`, { body: ids })).status).toBe(204);
    const listed = await call(sb, "GET", `${base}/repositories`);
    expect(listed.body.repositories.map((repo: { full_name: string }) => repo.full_name)).toEqual([
      "acme/api",
    ]);
    const foreign = await call(sb, "PUT", `${base}/repositories`, {
      body: { selected_repository_ids: [1003] },
    });
    expect(foreign.status).toBe(422);
  });
});

describe("an organization", () => {
  it("shows its settings to owners only, and only owners change them", async () => {
    const sb = await world();
    const member = await call(sb, "GET", "/orgs/acme", { token: READER });
    expect(member.body.login).toBe("acme");
    expect(member.body.default_repository_permission).toBeUndefined();
    const owner = await call(sb, "GET", "/orgs/acme");
    expect(owner.body.default_repository_permission).toBe("read");
    expect(
      (await call(sb, "PATCH", "/orgs/acme", { token: READER, body: { blog: "x" } })).status,
    ).toBe(404);
    const patched = await call(sb, "PATCH", "/orgs/acme", {
      body: {
        default_repository_permission: "write",
        company: "",
        members_can_create_repositories: false,
      },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      default_repository_permission: "write",
      members_can_create_public_repositories: false,
      members_can_create_private_repositories: false,
    });
    expect(patched.body.company).toBeUndefined();
    // The base permission is what members have: octo-reader may now push to acme/api.
    const repo = await call(sb, "GET", REPO, { token: READER });
    expect(repo.body.permissions.push).toBe(true);
    const long = await call(sb, "PATCH", "/orgs/acme", { body: { description: "x".repeat(161) } });
    expect(long.status).toBe(422);
  });

  it("has hooks whose secret a hook PATCH with a config removes, as GitHub documents, and a config PATCH keeps", async () => {
    const sb = await world();
    const hook = "/orgs/acme/hooks/501";
    const config = await call(sb, "PATCH", `${hook}/config`, { body: { content_type: "form" } });
    expect(config.body.secret).toBe("********");
    const edited = await call(sb, "PATCH", hook, {
      body: { config: { url: "https://audit.acme.example/github" } },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({
      type: "Organization",
      name: "web",
      url: `${sb.url}${hook}`,
    });
    expect(edited.body.config.secret).toBeUndefined();
    const clash = await call(sb, "POST", "/orgs/acme/hooks", {
      body: {
        name: "web",
        config: { url: "https://audit.acme.example/github" },
        events: ["member"],
      },
    });
    expect([clash.status, clash.body.errors?.[0]?.message]).toEqual([
      422,
      "Hook already exists on this organization",
    ]);
  });
});
