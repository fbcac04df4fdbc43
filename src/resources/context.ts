import type * as z from "zod";
import type { ChangeError } from "../core/plan.js";
import { describeFailure } from "../core/failure-text.js";
import { firstProblem } from "../core/zod-problem.js";
import { type ForgeClient, ForgeError, type PageShape } from "../forge/client.js";

export interface RepoRef {
  owner: string;
  name: string;
}

export function repoPath(repo: RepoRef): string {
  return `/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.name)}`;
}

export function changeError(
  message: string,
  method?: string,
  path?: string,
  status?: number,
): ChangeError {
  const error: ChangeError = { message };
  if (method && path) error.request = `${method} ${path}`;
  if (status !== undefined) error.status = status;
  return error;
}

/**
 * An error about a written value (`field` set), positioned under `prefix` of the kind's value; an
 * error of a read is left as it is.
 */
export function at(error: ChangeError, prefix: ReadonlyArray<string | number>): ChangeError {
  return error.field === undefined ? error : { ...error, field: [...prefix, ...error.field] };
}

export type ReadResult<T> =
  | { kind: "found"; data: T }
  | { kind: "absent"; detail: string }
  | { kind: "error"; error: ChangeError };

/**
 * What an operation answers, as far as the planner relies on it: a name for messages ("Protected
 * Branch") and a schema of the fields the code reads. Schemas are loose: members the code does not
 * read may be anything.
 */
export interface Shape<T> {
  name: string;
  schema: z.ZodType<T>;
}

type Query = Record<string, string | number>;

/** Worded after the request it names ("GET … answered 200 with a body that is not …"). */
function notShaped(path: string, status: number, shape: string, problem: string): ChangeError {
  return changeError(
    `answered ${status} with a body that is not ${shape}: ${problem}`,
    "GET",
    path,
    status,
  );
}

/**
 * The read side of one target as the resource kinds see it: failures become per-change errors (the
 * rest of the plan is still computed) instead of exceptions that would stop the whole plan. Every
 * answer is checked against the shape of its operation: an answer that is not that shape (a proxy's
 * HTML page, `null`, a number where an object belongs) is an error for the resource, never "absent"
 * and never a reason to write.
 */
export class ResourceReader {
  constructor(
    readonly target: string,
    readonly client: ForgeClient,
  ) {}

  /** Who reads, as a "not found" error names it: "the token", or the App installation. */
  get credential(): string {
    return this.client.credential ?? "the token";
  }

  async getOrAbsent<T>(path: string, shape: Shape<T>, query?: Query): Promise<ReadResult<T>> {
    try {
      const result = await this.client.getOrUndefined<unknown>(path, query);
      if (!result.found) return { kind: "absent", detail: result.detail };
      return shapedAnswer(path, result.data, shape);
    } catch (error) {
      return { kind: "error", error: toChangeError(error, "GET", path) };
    }
  }

  /**
   * The reads of one kind's plan of one place: `reader` to plan with; whether it answered any read
   * with a partial answer (../resources/graphql-read.ts), which a plan may keep only if it changes
   * nothing; and `exact`, the same reads answered without partial answers. A plain reader gives
   * none.
   */
  onePlan(): OnePlanReads {
    return { reader: this, partial: () => false, exact: this };
  }

  /** Every item of a list (all pages, shaped as `pages` says), each checked against the item shape. */
  async list<T>(
    path: string,
    query: Query | undefined,
    item: Shape<T>,
    pages: PageShape = {},
  ): Promise<ReadResult<T[]>> {
    let items: unknown[];
    try {
      items = await this.client.paginate<unknown>(path, query, pages);
    } catch (error) {
      if (error instanceof ForgeError && error.status === 404) {
        return { kind: "absent", detail: error.detail };
      }
      return { kind: "error", error: toChangeError(error, "GET", path) };
    }
    return shapedList(path, items, item);
  }
}

export interface OnePlanReads {
  reader: ResourceReader;
  partial(): boolean;
  exact: ResourceReader;
}

/** A 200 answer checked against the shape of its operation. */
export function shapedAnswer<T>(path: string, body: unknown, shape: Shape<T>): ReadResult<T> {
  const parsed = shape.schema.safeParse(body);
  if (!parsed.success) {
    return { kind: "error", error: notShaped(path, 200, shape.name, firstProblem(parsed.error)) };
  }
  return { kind: "found", data: parsed.data };
}

/** Every item of a listing checked against the item shape. */
export function shapedList<T>(
  path: string,
  items: readonly unknown[],
  item: Shape<T>,
): ReadResult<T[]> {
  const data: T[] = [];
  for (const [index, value] of items.entries()) {
    const parsed = item.schema.safeParse(value);
    if (!parsed.success) {
      const problem = firstProblem(parsed.error, `[${index}]`);
      return { kind: "error", error: notShaped(path, 200, `a list of ${item.name}`, problem) };
    }
    data.push(parsed.data);
  }
  return { kind: "found", data };
}

export function toChangeError(error: unknown, method: string, path: string): ChangeError {
  if (error instanceof ForgeError) {
    // The reason keeps forgeplan's note ("gave up after 6 attempts") with the service's words.
    return changeError(error.reason || error.message, error.method, error.path, error.status);
  }
  const message = error instanceof Error ? error.message : String(error);
  return changeError(message.split("\n")[0] ?? message, method, path);
}

/** A read that export needed and could not make; its message names the request and the answer. */
export class ReadFailed extends Error {
  override name = "ReadFailed";
}

/** The data of a read that must succeed (export has no plan to record an error in). */
export function mustFind<T>(result: ReadResult<T>, path: string): T {
  if (result.kind === "found") return result.data;
  if (result.kind === "error") throw readFailure(result.error);
  throw readFailure(changeError(result.detail, "GET", path, 404));
}

/** A read that failed, as export reports it: the request and the answer, then what went wrong. */
export function readFailure(error: ChangeError): ReadFailed {
  return new ReadFailed(describeFailure(error));
}
