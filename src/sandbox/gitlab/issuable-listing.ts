import { gitlabPageReply, parameters, type Reply, type RequestContext } from "./http.js";
import { carriesLabels } from "./labels/carried.js";
import type { Label } from "./labels/records.js";
import { TRUE } from "./request-parameters.js";
import type { User } from "./world/records.js";

/**
 * What the project listings of issues and of merge requests filter and order alike
 * (doc/api/issues.md, "List project issues"; doc/api/merge_requests.md, "List project merge
 * requests"; IssuableFinder): `state` (every state unless given, or `all`), `labels`, `search`
 * in the title and description (case-insensitive), `author_id`, `order_by` and `sort` (newest
 * created first by default), then a page. `with_labels_details` is the shape's.
 */
export interface Listed {
  id: number;
  title: string;
  description: string;
  state: string;
  labels: Label[];
  author: User;
  created_at: string;
  updated_at: string;
  merged_at?: string | null;
}

/** The comma-separated names of a `labels` parameter (Grape's CommaSeparatedToArray), trimmed. */
export function labelNames(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const items = Array.isArray(value) ? value.map(String) : String(value).split(",");
  return [...new Set(items.map((item) => item.trim()).filter((item) => item !== ""))];
}

/** Whether the answer shows each label in full (`with_labels_details=true`). */
export function withLabelsDetails(ctx: RequestContext): boolean {
  const value = parameters(ctx).with_labels_details;
  return value === true || (typeof value === "string" && TRUE.has(value.toLowerCase()));
}

/**
 * The orders the sandbox keeps the values of: `created_at`, `updated_at`, `title`, and a merge
 * request's `merged_at` (never merged last ascending, as NULLS LAST). The other orders the pages
 * list (priority, due_date, popularity, label_priority, …) rank by what the sandbox does not keep
 * (milestones, votes, due dates), so they rank by creation, GitLab's default.
 */
function compare(key: string): (a: Listed, b: Listed) => number {
  if (key === "title") return (a, b) => a.title.localeCompare(b.title);
  if (key === "updated_at") return (a, b) => a.updated_at.localeCompare(b.updated_at);
  if (key === "merged_at") {
    return (a, b) => (a.merged_at ?? "\uffff").localeCompare(b.merged_at ?? "\uffff");
  }
  return (a, b) => a.created_at.localeCompare(b.created_at);
}

export function listingReply<T extends Listed>(
  ctx: RequestContext,
  all: Iterable<T>,
  shape: (item: T, details: boolean) => unknown,
): Reply {
  const given = parameters(ctx);
  const state = given.state;
  const wanted = labelNames(given.labels) ?? [];
  const search = typeof given.search === "string" ? given.search.toLowerCase() : "";
  const author = given.author_id === undefined ? undefined : Number(given.author_id);
  const order = compare(typeof given.order_by === "string" ? given.order_by : "created_at");
  const direction = given.sort === "asc" ? 1 : -1;
  const listed = [...all]
    .filter(
      (item) =>
        (state === undefined || state === "all" || item.state === state) &&
        carriesLabels(item.labels, wanted) &&
        (search === "" ||
          item.title.toLowerCase().includes(search) ||
          item.description.toLowerCase().includes(search)) &&
        (author === undefined || item.author.id === author),
    )
    .sort((a, b) => direction * (order(a, b) || a.id - b.id));
  const details = withLabelsDetails(ctx);
  return gitlabPageReply(ctx, listed, (item) => shape(item, details));
}
