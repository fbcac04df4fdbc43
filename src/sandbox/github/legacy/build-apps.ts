import { createPublicKey, type KeyObject } from "node:crypto";
import type { AppSeed, LegacySeed } from "./schema.js";
import type { Account, App, Installation } from "../world/records.js";
import type { GithubWorld } from "../world/records.js";

/** Where a seed problem is and what it is; build-world turns it into a SeedProblem. */
export type Problem = (path: (string | number)[], message: string) => never;

/** Bot accounts get ids far above any seeded account, as GitHub's bot users have ids of their own. */
const BOT_ID_BASE = 900_000_000;

/** The App of a seed entry; its key is checked here, its installations once repositories exist. */
export function appFromSeed(seed: AppSeed, owner: Account, index: number, problem: Problem): App {
  let publicKey: KeyObject | undefined;
  if (seed.public_key !== undefined) {
    try {
      publicKey = createPublicKey(seed.public_key);
    } catch {
      problem(["apps", index, "public_key"], "expected a PEM public key");
    }
    if (publicKey.asymmetricKeyType !== "rsa") {
      problem(["apps", index, "public_key"], "GitHub Apps sign with RSA keys");
    }
  }
  const { public_key: _key, installations: _installations, ...fields } = seed;
  return { ...fields, owner, publicKey, installations: new Map() };
}

/** Installs every seeded App on its accounts; run after repositories are built. */
export function buildInstallations(world: GithubWorld, seed: LegacySeed, problem: Problem): void {
  seed.apps.forEach((appSeed, index) => {
    const app = world.appsById.get(appSeed.id);
    if (app === undefined) return;
    appSeed.installations.forEach((entry, at) => {
      const path = ["apps", index, "installations", at];
      if (world.installations.has(entry.id)) {
        problem([...path, "id"], `installation id ${entry.id} is used twice`);
      }
      const account = world.account(entry.account);
      if (account === undefined || account.type === "Bot") {
        problem([...path, "account"], `unknown account '${entry.account}'`);
      }
      const repositories = new Set<number>();
      entry.repositories.forEach((fullName, position) => {
        const [owner = "", name = ""] = fullName.split("/");
        const repo = world.repository(owner, name);
        if (repo === undefined || repo.owner.id !== account.id) {
          problem(
            [...path, "repositories", position],
            `'${fullName}' is not a repository of ${account.login}`,
          );
        }
        repositories.add(repo.id);
      });
      const installation: Installation = {
        id: entry.id,
        app,
        account,
        repositorySelection: entry.repository_selection,
        repositories,
        // Every installation can read metadata (GitHub grants it to every App).
        permissions: { ...entry.permissions, metadata: entry.permissions.metadata ?? "read" },
        created_at: entry.created_at,
        bot: botOf(app),
      };
      installation.bot.installation = installation;
      app.installations.set(entry.id, installation);
      world.installations.set(entry.id, installation);
    });
  });
}

/**
 * The bot user an installation's tokens act as: the App's `slug[bot]` (one user per App, as on
 * GitHub), one object per installation so that it knows which installation it acts for.
 */
function botOf(app: App): Account {
  return {
    login: `${app.slug}[bot]`,
    id: BOT_ID_BASE + app.id,
    name: null,
    email: null,
    type: "Bot",
    site_admin: false,
  };
}
