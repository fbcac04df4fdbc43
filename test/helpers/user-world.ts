import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { APP_ID, appKeys, INSTALLATION_ID } from "./apps.js";

export const ALICE = "alice-token";
export const BOB = "bob-token";

const main = [{ name: "main" }];

/**
 * A seed file of personal accounts: alice owns `alice/notes` (private), `alice/site` (public) and
 * `alice/wiki` (private); she collaborates on bob's `bob/shared` (private) and `bob/blog` (public), and is a member of the
 * organization `guild`, whose private `guild/tools` its members may pull. App 4242 is installed on
 * alice's account as installation 77, over the repositories `selected` (default: notes and site)
 * or all of hers, with administration write.
 */
export function userWorldFile(selected: string[] | "all" = ["alice/notes", "alice/site"]): string {
  const seed = {
    users: [
      { login: "alice", id: 10, name: "Alice", token: ALICE },
      { login: "bob", id: 11, name: "Bob", token: BOB },
    ],
    organizations: [{ login: "guild", id: 50, owners: ["bob"], members: ["alice"] }],
    apps: [
      {
        id: APP_ID,
        slug: "settings-bot",
        name: "Settings Bot",
        owner: "guild",
        public_key: appKeys().publicKey,
        installations: [
          {
            id: INSTALLATION_ID,
            account: "alice",
            ...(selected === "all"
              ? {}
              : { repository_selection: "selected", repositories: selected }),
            permissions: { administration: "write" },
          },
        ],
      },
    ],
    repositories: [
      { full_name: "alice/wiki", private: true, branches: main },
      { full_name: "alice/site", private: false, branches: main },
      { full_name: "alice/notes", private: true, branches: main },
      { full_name: "bob/shared", private: true, collaborators: { alice: "push" }, branches: main },
      { full_name: "bob/blog", private: false, collaborators: { alice: "push" }, branches: main },
      { full_name: "guild/tools", private: true, branches: main },
    ],
  };
  const file = join(mkdtempSync(join(tmpdir(), "forgeplan-users-")), "world.yaml");
  writeFileSync(file, stringify(seed));
  return file;
}
