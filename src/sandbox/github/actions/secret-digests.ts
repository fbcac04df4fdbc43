import { environmentsOf } from "../environments/records.js";
import { type StoredSecret, storeOf } from "./records.js";
import type { GithubWorld } from "../world/records.js";

/** One stored secret as `GET /_sandbox/secrets` lists it: where it is, its name, its digest. */
export interface SecretDigest {
  /** The path its list is read at: `/repos/acme/api/actions/secrets`. */
  at: string;
  name: string;
  /** SHA-256 (hex) of the value that decrypted, the only trace of it the sandbox keeps. */
  sha256: string;
}

/**
 * Every secret of the world with the digest of its value, so a test (or a curious user of the demo)
 * can prove which value arrived without the sandbox keeping it. Not one of GitHub's endpoints.
 */
export function secretDigests(world: GithubWorld): SecretDigest[] {
  const found: SecretDigest[] = [];
  const add = (at: string, secrets: ReadonlyMap<string, StoredSecret>) => {
    for (const secret of secrets.values())
      found.push({ at, name: secret.name, sha256: secret.sha256 });
  };
  for (const org of world.organizations.values()) {
    add(`/orgs/${org.account.login}/actions/secrets`, storeOf(org).secrets);
    add(`/orgs/${org.account.login}/dependabot/secrets`, storeOf(org).dependabot);
  }
  for (const repo of world.repositories.values()) {
    const base = `/repos/${repo.owner.login}/${repo.name}`;
    add(`${base}/actions/secrets`, storeOf(repo).secrets);
    add(`${base}/dependabot/secrets`, storeOf(repo).dependabot);
    for (const environment of environmentsOf(repo).values()) {
      add(
        `${base}/environments/${encodeURIComponent(environment.name)}/secrets`,
        storeOf(environment).secrets,
      );
    }
  }
  return found;
}
