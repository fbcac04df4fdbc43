import { attached } from "../../core/attached.js";
import type { GitlabWorld, Group, Project } from "../world/records.js";

/**
 * A project's or a group's webhook (doc/api/project_webhooks.md, group_webhooks.md), as GitLab's
 * `web_hooks` row keeps it: the token and custom header values in full (GitLab encrypts them at
 * rest and never answers them), the events as their `<name>_events` booleans.
 */
export interface Hook {
  id: number;
  url: string;
  name: string | null;
  description: string | null;
  token: string | null;
  /** `push_events` … by field name; a field not set is off. */
  events: Record<string, boolean>;
  enable_ssl_verification: boolean;
  push_events_branch_filter: string | null;
  branch_filter_strategy: "wildcard" | "regex" | "all_branches";
  custom_webhook_template: string | null;
  /** Header values by name, in the order they were set. */
  custom_headers: Map<string, string>;
  created_at: string;
}

/** A project's or a group's hooks, in the order they were added (GitLab lists them by id). */
export const hooksOf = attached((_owner: Project | Group): Hook[] => []);

/** Hook ids are one sequence across the instance, as GitLab's `web_hooks` table's. */
export const hookIds = attached((_world: GitlabWorld) => ({ next: 1 }));
