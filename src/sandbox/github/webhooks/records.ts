import { attached } from "../../core/attached.js";
import type { GithubWorld, Organization, Repository } from "../world/records.js";

/**
 * A webhook's `config`, as GitHub keeps it: only the keys its webhook-config schema names (url,
 * content_type, secret, insecure_ssl). Other keys a client sends are accepted where GitHub's schema
 * is open and dropped, so no client can keep private markers there (issue #11).
 */
export const HOOK_CONFIG_KEYS = ["url", "content_type", "secret", "insecure_ssl"] as const;
export type HookConfigKey = (typeof HOOK_CONFIG_KEYS)[number];
export type HookConfig = Partial<Record<HookConfigKey, string>>;

export interface Hook {
  id: number;
  config: HookConfig;
  events: string[];
  active: boolean;
  branch_filter: string;
  authorization_header: string | undefined;
  created_at: string;
  updated_at: string;
}

/** A repository's hooks by id. */
export const repositoryHooksOf = attached((_repo: Repository) => new Map<number, Hook>());

/** An organization's hooks by id (ids are shared with repository hooks). */
export const organizationHooksOf = attached((_org: Organization) => new Map<number, Hook>());

/** The ids of every hook, of repositories and organizations, ever made, and the next one to try. */
const hookIds = attached((_world: GithubWorld) => ({ taken: new Set<number>(), next: 1 }));

/**
 * The id of a new hook: the next of one sequence across repositories and organizations, passing
 * over ids a seed gave (the demo world's organization hook has a high one, so repository hooks
 * created in it keep the ids they always had).
 */
export function newHookId(world: GithubWorld): number {
  const ids = hookIds(world);
  while (ids.taken.has(ids.next)) ids.next++;
  const id = ids.next++;
  ids.taken.add(id);
  return id;
}

/** Records ids a seed gave, and where created hooks start. */
export function seededHookIds(world: GithubWorld, taken: Iterable<number>, next: number): void {
  const ids = hookIds(world);
  for (const id of taken) ids.taken.add(id);
  ids.next = next;
}
