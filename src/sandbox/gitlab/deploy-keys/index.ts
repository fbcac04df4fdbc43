import * as z from "zod";
import { check } from "../../core/seed.js";
import { gitlabArea } from "../area.js";
import { type DeployKey, deployKeysOf, fingerprintsOf, link } from "./records.js";
import { deployKeyRoutes } from "./routes.js";

/**
 * Deploy keys of projects (the `gitlab_deploy_key` kind): instance-wide key records, each enabled
 * in projects with a `can_push` of their own. A seed's key listed in several projects is one key
 * (the first entry's title and expiry), as GitLab shares it.
 */

const keySeed = z.strictObject({
  title: z.string().min(1),
  key: z.string().min(1),
  can_push: z.boolean().default(false),
  expires_at: z.string().nullable().default(null),
});

/**
 * The demo world's deploy keys: acme/api's release key (id 1, with write access, which its
 * protections may name) and acme/web's CI key.
 */
const DEMO_KEYS = {
  release:
    "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIKTD+bf3oHGhjkDcp/qtU5boewCxGh4tWZCXKau9ZRog release@acme",
  ci: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIObk/jhN6Owfx1L2BD0+wvCjyBAqAFfplBHbFvTITFYk ci@acme",
} as const;

export const deployKeys = gitlabArea({
  name: "deploy-keys",
  seed: { projects: { deploy_keys: z.array(keySeed).default([]) } },
  demo: {
    projects: [
      { id: 1, deploy_keys: [{ title: "release bot", key: DEMO_KEYS.release, can_push: true }] },
      { id: 2, deploy_keys: [{ title: "ci-deploy", key: DEMO_KEYS.ci }] },
    ],
  },
  build(world, seed) {
    const store = deployKeysOf(world);
    seed.projects.forEach((entry, index) => {
      const project = world.seeded.projects[index];
      check(
        project !== undefined || entry.deploy_keys.length === 0,
        ["projects", index],
        "no project",
      );
      if (project === undefined) return;
      entry.deploy_keys.forEach((written, at) => {
        const where = ["projects", index, "deploy_keys", at];
        const prints = fingerprintsOf(written.key);
        check(prints !== undefined, [...where, "key"], "not an OpenSSH public key");
        const expiresAt = written.expires_at === null ? null : Date.parse(written.expires_at);
        check(!Number.isNaN(expiresAt), [...where, "expires_at"], "not a time");
        let key: DeployKey | undefined = store.keys.find(
          (candidate) => candidate.fingerprintSha256 === prints.sha256,
        );
        if (key === undefined) {
          key = {
            id: store.next++,
            title: written.title,
            key: written.key.trim(),
            fingerprint: prints.md5,
            fingerprintSha256: prints.sha256,
            createdAt: "2026-01-02T09:00:00.000Z",
            expiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString(),
            public: false,
            user: null,
            projects: new Map(),
          };
          store.keys.push(key);
        }
        check(!key.projects.has(project), where, "the key is listed twice for this project");
        link(project, key, written.can_push);
      });
    });
  },
  routes: deployKeyRoutes,
});
