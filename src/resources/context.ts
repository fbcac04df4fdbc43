import type { Change, ChangeError, ResourceKind } from "../core/plan.js";
import { type ForgeClient, ForgeError } from "../forge/client.js";

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

export type ReadResult<T> =
  | { kind: "found"; data: T }
  | { kind: "absent"; detail: string }
  | { kind: "error"; error: ChangeError };

/**
 * The read side of one target as the resource kinds see it: failures become per-change errors (the
 * rest of the plan is still computed) instead of exceptions that would stop the whole plan.
 */
export class ResourceReader {
  constructor(
    readonly target: string,
    readonly client: ForgeClient,
  ) {}

  async getOrAbsent<T>(
    path: string,
    query?: Record<string, string | number>,
  ): Promise<ReadResult<T>> {
    try {
      const result = await this.client.getOrUndefined<T>(path, query);
      return result.found
        ? { kind: "found", data: result.data }
        : { kind: "absent", detail: result.detail };
    } catch (error) {
      return { kind: "error", error: toChangeError(error, "GET", path) };
    }
  }

  async list<T>(path: string, query?: Record<string, string | number>): Promise<ReadResult<T[]>> {
    try {
      return { kind: "found", data: await this.client.paginate<T>(path, query) };
    } catch (error) {
      if (error instanceof ForgeError && error.status === 404) {
        return { kind: "absent", detail: error.detail };
      }
      return { kind: "error", error: toChangeError(error, "GET", path) };
    }
  }
}

export function toChangeError(error: unknown, method: string, path: string): ChangeError {
  if (error instanceof ForgeError) {
    // The reason keeps forgeplan's note ("gave up after 6 attempts") with the service's words.
    return changeError(error.reason || error.message, error.method, error.path, error.status);
  }
  const message = error instanceof Error ? error.message : String(error);
  return changeError(message.split("\n")[0] ?? message, method, path);
}

/** A change that is a no-op until the kind decides otherwise; the address is built in one place. */
export function newChange(target: string, scope: string, kind: ResourceKind, name: string): Change {
  return {
    address: `${target}/${scope}/${kind}/${name}`,
    kind,
    action: "no-op",
    target,
    scope,
    name,
    diff: [],
    requests: [],
  };
}
