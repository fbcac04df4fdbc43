/** Logins and slugs compare case-insensitively and as sets: the canonical form is lower-cased and sorted. */
export function principalSet(names: readonly string[] | undefined): string[] {
  return [...new Set((names ?? []).map((name) => name.toLowerCase()))].sort();
}

export interface PrincipalLists {
  users: string[];
  teams: string[];
  apps: string[];
}

export const NO_PRINCIPALS: PrincipalLists = Object.freeze({ users: [], teams: [], apps: [] });

export function isEmptyLists(lists: PrincipalLists | null | undefined): boolean {
  return !lists || lists.users.length + lists.teams.length + lists.apps.length === 0;
}

type ReadPrincipal = { login?: unknown; slug?: unknown; name?: unknown } | null | undefined;

/** Users are objects with `login` when read; teams and apps objects with `slug`. */
export function loginsOf(items: readonly ReadPrincipal[] | undefined): string[] {
  return principalSet((items ?? []).map((item) => String(item?.login ?? "")).filter(Boolean));
}

export function slugsOf(items: readonly ReadPrincipal[] | undefined): string[] {
  return principalSet(
    (items ?? []).map((item) => String(item?.slug ?? item?.name ?? "")).filter(Boolean),
  );
}
