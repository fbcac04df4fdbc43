import type { Hook } from "./records.js";

/**
 * GitHub lets hooks of one repository share a URL while their events differ: "Multiple webhooks can
 * share the same `config` as long as those webhooks do not have any `events` that overlap" (the
 * description of `POST /repos/{owner}/{repo}/hooks` in @octokit/openapi). The sentence speaks of the
 * whole config; the sandbox compares the URL alone (docs/service-decisions.md). `*` is every event,
 * so it overlaps any other.
 */
export function overlappingHook(
  hooks: Iterable<Hook>,
  candidate: Pick<Hook, "id" | "config" | "events">,
): Hook | undefined {
  for (const other of hooks) {
    if (
      other.id !== candidate.id &&
      other.config.url === candidate.config.url &&
      eventsOverlap(other.events, candidate.events)
    ) {
      return other;
    }
  }
  return undefined;
}

function eventsOverlap(a: readonly string[], b: readonly string[]): boolean {
  return a.some((x) => b.some((y) => x === y || x === "*" || y === "*"));
}
