import type { Change, PlannedRequest } from "../core/plan.js";

/**
 * Writes of several changes sent as one request. A kind whose service takes one write for many
 * places (GitHub's `PATCH /orgs/{org}/properties/values`, up to 30 repositories a request) plans
 * each repository's change with its own request, marked `batch`; the plan stays one change per
 * resource, each applied, reported and verified on its own. Apply joins the requests of one step
 * that differ only in the batch's list into requests of at most `max` members: 1,000 repositories
 * given one value are 34 writes. The engine does this, not the kind, because only apply sees the
 * changes of every repository at once.
 */

export interface BatchedWrite {
  /** The changes the request carries out, in the plan's order. */
  changes: Change[];
  /** Their request, with the lists joined. */
  request: PlannedRequest;
}

type Body = Record<string, unknown>;

function isBody(value: unknown): value is Body {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The one request of a change that may be joined with others', if it is one. */
export function batchable(change: Change): PlannedRequest | undefined {
  const [request, ...more] = change.requests;
  if (request?.batch === undefined || more.length > 0 || !isBody(request.body)) return undefined;
  return Array.isArray(request.body[request.batch.list]) ? request : undefined;
}

/** What requests must share to be joined: everything but the batch's list. */
function batchKey(change: Change, request: PlannedRequest): string {
  const { list, max } = request.batch!;
  const rest = { ...(request.body as Body), [list]: null };
  return JSON.stringify([change.target, request.method, request.path, list, max, rest]);
}

/**
 * The changes joined into requests of at most `max` list members each, in the order the changes
 * come; a member two changes name is sent once.
 */
export function batchWrites(changes: readonly Change[]): BatchedWrite[] {
  const groups = new Map<string, Change[]>();
  for (const change of changes) {
    const request = batchable(change);
    if (request === undefined) throw new Error(`${change.address} has no batchable request`);
    const key = batchKey(change, request);
    groups.set(key, [...(groups.get(key) ?? []), change]);
  }
  const writes: BatchedWrite[] = [];
  for (const group of groups.values()) {
    const first = batchable(group[0]!)!;
    const { list, max } = first.batch!;
    let current: { changes: Change[]; members: unknown[] } | undefined;
    const flush = () => {
      if (current === undefined) return;
      const body = { ...(first.body as Body), [list]: current.members };
      const { batch: _batch, ...request } = first;
      writes.push({ changes: current.changes, request: { ...request, body } });
      current = undefined;
    };
    for (const change of group) {
      const members = (batchable(change)!.body as Body)[list] as unknown[];
      const isNew = (member: unknown) =>
        !(current?.members ?? []).some((held) => JSON.stringify(held) === JSON.stringify(member));
      if (current !== undefined && current.members.length + members.filter(isNew).length > max) {
        flush();
      }
      const fresh = members.filter(isNew);
      current ??= { changes: [], members: [] };
      current.changes.push(change);
      current.members.push(...fresh);
    }
    flush();
  }
  return writes;
}
