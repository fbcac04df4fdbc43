import type { ChangeError } from "../../core/plan.js";
import { changeError, type ReadResult, type ResourceReader, type Shape } from "../context.js";
import { groupPath } from "../gitlab-paths.js";
import { groupShape, memberShape, protectedBranchShape } from "./canonical.js";
import type { ApprovalRule } from "./settings.js";

/** Where a project's approvals are planned: its reader, its API path and its name. */
export interface Context {
  reader: ResourceReader;
  /** `/api/v4/projects/acme%2Fapi`. */
  path: string;
  scope: string;
}

/** What a rule's POST or PUT sends, GitLab's ids in place of the names written. */
export interface RuleBody {
  name: string;
  approvals_required: number;
  user_ids: number[];
  group_ids: number[];
  protected_branch_ids: number[];
  applies_to_all_protected_branches: boolean;
}

/**
 * The ids a rule's approvers and branches stand for, read once a plan and only when a rule is
 * written: users from the project's members (`/members/all`, inherited ones included), since
 * GitLab keeps only members as approvers and drops others without a word
 * (ApprovalRules::ParamsFilteringService, `project.members_among`) — so a username that is no
 * member is an error at plan time, never a rule that silently lacks it; groups by full path;
 * protected branches by name from the project's protected branches.
 */
export class Approvers {
  #members?: Promise<ReadResult<Map<string, number>>>;
  #branches?: Promise<ReadResult<Map<string, number>>>;
  readonly #groups = new Map<string, Promise<ReadResult<{ id: number }>>>();

  constructor(private readonly ctx: Context) {}

  #byName<T>(
    path: string,
    shape: Shape<T>,
    key: (item: T) => [string, number],
  ): Promise<ReadResult<Map<string, number>>> {
    return this.ctx.reader
      .list(path, undefined, shape)
      .then((read) =>
        read.kind === "found" ? { kind: "found", data: new Map(read.data.map(key)) } : read,
      );
  }

  members(): Promise<ReadResult<Map<string, number>>> {
    this.#members ??= this.#byName(`${this.ctx.path}/members/all`, memberShape, (member) => [
      member.username.toLowerCase(),
      member.id,
    ]);
    return this.#members;
  }

  branches(): Promise<ReadResult<Map<string, number>>> {
    this.#branches ??= this.#byName(
      `${this.ctx.path}/protected_branches`,
      protectedBranchShape,
      (branch) => [branch.name, branch.id],
    );
    return this.#branches;
  }

  group(path: string): Promise<ReadResult<{ id: number }>> {
    const key = path.toLowerCase();
    let pending = this.#groups.get(key);
    if (pending === undefined) {
      pending = this.ctx.reader.getOrAbsent(groupPath(path), groupShape);
      this.#groups.set(key, pending);
    }
    return pending;
  }

  /** The rule's body, or the first name that stands for nothing GitLab would keep. */
  async body(
    name: string,
    written: ApprovalRule,
  ): Promise<{ body: RuleBody } | { error: ChangeError }> {
    const at = (field: string, index: number) => ["rules", "items", name, field, index];
    const { scope, path } = this.ctx;
    const user_ids: number[] = [];
    const users = written.users ?? [];
    if (users.length > 0) {
      const members = await this.members();
      if (members.kind !== "found") return { error: failed(members, `${path}/members/all`) };
      for (const [index, username] of users.entries()) {
        const id = members.data.get(username.toLowerCase());
        if (id === undefined) {
          return {
            error: {
              ...changeError(
                `approver ${username} is not a member of ${scope} (or no such user): GitLab keeps only the project's members as approvers and drops others`,
                "GET",
                `${path}/members/all`,
              ),
              field: at("users", index),
            },
          };
        }
        user_ids.push(id);
      }
    }
    const group_ids: number[] = [];
    for (const [index, full] of (written.groups ?? []).entries()) {
      const found = await this.group(full);
      if (found.kind === "error") return { error: found.error };
      if (found.kind === "absent") {
        return {
          error: {
            ...changeError(
              `approver group ${full} was not found (or ${this.ctx.reader.credential} cannot see it)`,
              "GET",
              groupPath(full),
              404,
            ),
            field: at("groups", index),
          },
        };
      }
      group_ids.push(found.data.id);
    }
    const all = written.applies_to_all_protected_branches ?? false;
    const protected_branch_ids: number[] = [];
    const branches = all ? [] : (written.protected_branches ?? []);
    if (branches.length > 0) {
      const listed = await this.branches();
      if (listed.kind !== "found") return { error: failed(listed, `${path}/protected_branches`) };
      for (const [index, branch] of branches.entries()) {
        const id = listed.data.get(branch);
        if (id === undefined) {
          return {
            error: {
              ...changeError(
                `branch ${branch} is not protected in ${scope}: an approval rule applies to protected branches only (protect it first, then plan again)`,
                "GET",
                `${path}/protected_branches`,
              ),
              field: at("protected_branches", index),
            },
          };
        }
        protected_branch_ids.push(id);
      }
    }
    return {
      body: {
        name,
        approvals_required: written.approvals_required ?? 0,
        user_ids,
        group_ids,
        protected_branch_ids,
        applies_to_all_protected_branches: all,
      },
    };
  }
}

/** A listing that found nothing to look names up in: its error, or the project it could not see. */
function failed(read: Exclude<ReadResult<unknown>, { kind: "found" }>, path: string): ChangeError {
  return read.kind === "error"
    ? read.error
    : changeError(`answered 404 (${read.detail})`, "GET", path, 404);
}
