import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/cli.js";
import { recordedSandbox } from "../helpers/recorded-sandbox.js";
import { call, configFile, recordedViolations } from "../helpers/sandbox.js";

/** Deploy keys of the demo world's acme/api: "ci deploy", read-only, an ed25519 key of 0x01s. */

const live = recordedSandbox();

function key(fill: number): string {
  const type = Buffer.from("ssh-ed25519", "latin1");
  const blob = Buffer.alloc(4 + type.length + 4 + 32);
  blob.writeUInt32BE(type.length, 0);
  type.copy(blob, 4);
  blob.writeUInt32BE(32, 4 + type.length);
  blob.fill(fill, 8 + type.length);
  return `ssh-ed25519 ${blob.toString("base64")}`;
}

const fingerprint = (text: string) =>
  `SHA256:${createHash("sha256")
    .update(Buffer.from(text.split(" ")[1]!, "base64"))
    .digest("base64")
    .replace(/=+$/, "")}`;

const config = (keys: string) =>
  configFile(`version: 1\nrepositories:\n  - name: acme/api\n    deploy_keys:\n${keys}`);

describe("deploy keys", () => {
  it("export plans as no change", async () => {
    const exported = await runInProcess([
      "export",
      "--repo",
      "acme/api",
      "--sandbox-url",
      live.world.url,
    ]);
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain(`key: ${key(1)}`);
    const { code } = await live.planOf(configFile(exported.stdout));
    expect(code).toBe(0);
  });

  it("retitles a key with one DELETE and one POST valid against GitHub's request schema", async () => {
    const path = config(
      `      keys:\n        - { title: deploy from CI, key: "${key(1)} ci@acme" }\n`,
    );
    const { plan } = await live.planOf(path);
    const [change] = plan.changes;
    expect(change).toMatchObject({
      address: `github/acme/api/deploy_key/${fingerprint(key(1))}`,
      action: "update",
      diff: [{ path: "title", before: "ci deploy", after: "deploy from CI" }],
    });
    expect(change!.notes?.[0]).toMatch(/^replaced: GitHub has no update for a deploy key/);
    await live.applied(path);
    expect(live.sent()).toEqual(["DELETE /repos/acme/api/keys/1", "POST /repos/acme/api/keys"]);
    expect(live.writes[1]!.body).toEqual({
      title: "deploy from CI",
      key: `${key(1)} ci@acme`,
      read_only: true,
    });
    expect(live.writes.flatMap(recordedViolations)).toEqual([]);
  });

  it("replaces a rotated key (a new key under a live title) and deletes the old one first", async () => {
    const path = config(`      keys:\n        - { title: ci deploy, key: "${key(2)}" }\n`);
    const { plan } = await live.planOf(path);
    expect(plan.changes).toHaveLength(1);
    expect(plan.changes[0]).toMatchObject({
      address: `github/acme/api/deploy_key/${fingerprint(key(2))}`,
      action: "update",
      diff: [{ path: "fingerprint", before: fingerprint(key(1)), after: fingerprint(key(2)) }],
    });
    await live.applied(path);
    expect(live.sent()).toEqual(["DELETE /repos/acme/api/keys/1", "POST /repos/acme/api/keys"]);
  });

  it("reports GitHub's refusal of a key another repository uses", async () => {
    await call(live.world, "POST", "/repos/acme/web/keys", {
      body: { title: "shared", key: key(5), read_only: true },
    });
    live.forget();
    const path = config(`      keys:\n        - { title: shared, key: "${key(5)}" }\n`);
    const applied = await runInProcess([
      "apply",
      "-c",
      path,
      "--sandbox-url",
      live.world.url,
      "--auto-approve",
    ]);
    expect(applied.code).toBe(1);
    expect(applied.stdout).toContain("key is already in use");
  });

  it("deletes keys not written under mode: authoritative, as removals", async () => {
    const path = config(`      mode: authoritative\n      keys: []\n`);
    const { plan } = await live.planOf(path);
    expect(plan.changes[0]).toMatchObject({
      action: "delete",
      removal: { collection: "github/acme/api/deploy_key", live: 1 },
    });
    await live.applied(path);
    expect(live.sent()).toEqual(["DELETE /repos/acme/api/keys/1"]);
  });
});
