import * as z from "zod";
import { check } from "../../core/seed.js";
import { gitlabArea } from "../area.js";
import { created } from "./model.js";
import { hookIds, hooksOf } from "./records.js";
import { hookRoutes } from "./routes.js";
import { eventsOf, GROUP_HOOK_EVENTS, type HookScope, PROJECT_HOOK_EVENTS } from "./shapes.js";

/**
 * Webhooks of projects and groups (the `gitlab_hook` kind), each with an instance-wide id. A seed's
 * hook is written as GitLab's create takes it (`custom_headers` as `{name: value}`), and made
 * the way the create makes it.
 */

/** When the seed's hooks were made (the world's seeded records share one time). */
const SEEDED_AT = "2026-01-02T09:00:00.000Z";

type EventField = (typeof PROJECT_HOOK_EVENTS)[number] | (typeof GROUP_HOOK_EVENTS)[number];
const eventSeeds = Object.fromEntries(
  [...new Set([...PROJECT_HOOK_EVENTS, ...GROUP_HOOK_EVENTS])].map((field) => [
    field,
    z.boolean().optional(),
  ]),
) as Record<EventField, z.ZodOptional<z.ZodBoolean>>;

const hookSeed = z.strictObject({
  url: z.string().min(1),
  name: z.string().optional(),
  description: z.string().optional(),
  token: z.string().optional(),
  enable_ssl_verification: z.boolean().optional(),
  push_events_branch_filter: z.string().optional(),
  branch_filter_strategy: z.enum(["wildcard", "regex", "all_branches"]).optional(),
  custom_webhook_template: z.string().optional(),
  custom_headers: z.record(z.string(), z.string()).optional(),
  ...eventSeeds,
});
const hooksSeed = z.array(hookSeed).default([]);

export const hooks = gitlabArea({
  name: "hooks",
  seed: { projects: { hooks: hooksSeed }, groups: { hooks: hooksSeed } },
  demo: {
    groups: [
      {
        path: "acme",
        hooks: [
          {
            url: "https://audit.acme.example/gitlab",
            name: "audit",
            push_events: false,
            member_events: true,
            subgroup_events: true,
            project_events: true,
            token: "demo-group-hook-token",
          },
        ],
      },
    ],
    projects: [
      {
        id: 1,
        hooks: [
          {
            url: "https://ci.acme.example/gitlab/api",
            name: "ci",
            description: "Builds every push to main",
            push_events: true,
            merge_requests_events: true,
            pipeline_events: true,
            push_events_branch_filter: "main",
            token: "demo-project-hook-token",
            custom_headers: { "X-Acme-Route": "ci-api" },
          },
        ],
      },
    ],
  },
  build(world, seed) {
    const ids = hookIds(world);
    const add = (
      owner: Parameters<typeof hooksOf>[0],
      scope: HookScope,
      entries: z.output<typeof hooksSeed>,
    ) => {
      for (const { custom_headers, ...entry } of entries) {
        const headers = Object.entries(custom_headers ?? {}).map(([key, value]) => ({
          key,
          value,
        }));
        const params = { ...entry, ...(headers.length > 0 ? { custom_headers: headers } : {}) };
        hooksOf(owner).push(created(ids.next++, SEEDED_AT, params, eventsOf(scope)));
      }
    };
    seed.groups.forEach((entry, index) => {
      const group = world.seeded.groups[index];
      if (group !== undefined) add(group, "groups", entry.hooks);
    });
    seed.projects.forEach((entry, index) => {
      const project = world.seeded.projects[index];
      check(project !== undefined || entry.hooks.length === 0, ["projects", index], "no project");
      if (project !== undefined) add(project, "projects", entry.hooks);
    });
  },
  /** The `full` profile: a CI hook on pushes and merge requests, without a secret token. */
  generateProjects:
    (_seed, { profile }) =>
    (entry) => {
      if (profile !== "full") return;
      entry.hooks = [
        {
          url: "https://ci.acme.example/hooks/forge",
          push_events: true,
          merge_requests_events: true,
        },
      ];
    },
  routes: hookRoutes,
});
