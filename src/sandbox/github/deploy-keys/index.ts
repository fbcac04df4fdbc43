import * as z from "zod";
import { fail } from "../../core/seed.js";
import { githubArea } from "../area.js";
import { deployKeyPermissions } from "./app-permissions.js";
import { storedKey } from "./key-text.js";
import { deployKeyIds, deployKeysOf } from "./records.js";
import { deployKeyRoutes } from "./routes.js";

/** A key of the demo world: an ed25519 public key's blob of 32 bytes of 0x01 (no one holds it). */
function demoKey(fill: number): string {
  const type = Buffer.from("ssh-ed25519", "latin1");
  const blob = Buffer.alloc(4 + type.length + 4 + 32);
  blob.writeUInt32BE(type.length, 0);
  type.copy(blob, 4);
  blob.writeUInt32BE(32, 4 + type.length);
  blob.fill(fill, 8 + type.length);
  return `ssh-ed25519 ${blob.toString("base64")}`;
}

/** A repository's deploy keys (the `deploy_key` kind). */
export const deployKeys = githubArea({
  name: "deploy-keys",
  seed: {
    repositories: {
      deploy_keys: z
        .array(
          z.strictObject({
            title: z.string().min(1),
            key: z.string().min(1),
            read_only: z.boolean().default(true),
          }),
        )
        .default([]),
    },
  },
  demo: {
    repositories: [
      {
        full_name: "acme/api",
        deploy_keys: [{ title: "ci deploy", key: demoKey(1), read_only: true }],
      },
    ],
  },
  eachRepository(world, repo, entry, at) {
    const ids = deployKeyIds(world);
    entry.deploy_keys.forEach((deployKey, index) => {
      const key = storedKey(deployKey.key);
      if (key === undefined)
        fail([...at, "deploy_keys", index, "key"], "not an OpenSSH public key");
      deployKeysOf(repo).set(ids.next, {
        id: ids.next++,
        key: key!,
        title: deployKey.title,
        read_only: deployKey.read_only,
        created_at: repo.created_at,
      });
    });
  },
  routes: deployKeyRoutes,
  permissions: deployKeyPermissions,
});
