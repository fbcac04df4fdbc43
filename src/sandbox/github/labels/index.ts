import * as z from "zod";
import { fail } from "../../core/seed.js";
import { githubArea } from "../area.js";
import { labelPermissions } from "./app-permissions.js";
import { labelGraphql } from "./graphql.js";
import { addLabel, DEFAULT_LABELS, findLabel, labelRoutes } from "./routes.js";

/**
 * A repository's labels (the `label` kind). A new repository starts with GitHub's default labels,
 * and so does a seeded one whose entry has no `labels`.
 */
export const labels = githubArea({
  name: "labels",
  seed: {
    repositories: {
      labels: z
        .array(
          z.strictObject({
            name: z.string().min(1),
            color: z.string().regex(/^[0-9a-fA-F]{6}$/, "expected six hex digits without #"),
            description: z.string().nullable().default(null),
            default: z.boolean().default(false),
          }),
        )
        .optional(),
    },
  },
  demo: {
    repositories: [
      {
        full_name: "acme/api",
        // GitHub's default labels, and one the demo renames.
        labels: [
          { name: "bug", color: "d73a4a", description: "Something isn't working", default: true },
          {
            name: "documentation",
            color: "0075ca",
            description: "Improvements or additions to documentation",
            default: true,
          },
          {
            name: "duplicate",
            color: "cfd3d7",
            description: "This issue or pull request already exists",
            default: true,
          },
          {
            name: "enhancement",
            color: "a2eeef",
            description: "New feature or request",
            default: true,
          },
          {
            name: "good first issue",
            color: "7057ff",
            description: "Good for newcomers",
            default: true,
          },
          {
            name: "help wanted",
            color: "008672",
            description: "Extra attention is needed",
            default: true,
          },
          {
            name: "invalid",
            color: "e4e669",
            description: "This doesn't seem right",
            default: true,
          },
          {
            name: "question",
            color: "d876e3",
            description: "Further information is requested",
            default: true,
          },
          {
            name: "wontfix",
            color: "ffffff",
            description: "This will not be worked on",
            default: true,
          },
          { name: "needs-triage", color: "fbca04", description: "Not looked at yet" },
        ],
      },
    ],
  },
  eachRepository(world, repo, entry, at) {
    const labels = entry.labels ?? DEFAULT_LABELS.map((label) => ({ ...label, default: true }));
    labels.forEach((label, index) => {
      if (findLabel(repo, label.name) !== undefined) {
        fail(
          [...at, "labels", index, "name"],
          `label '${label.name}' is defined twice (names are not case-sensitive)`,
        );
      }
      addLabel(world, repo, label);
    });
  },
  // "About default labels" (docs.github.com): every new repository starts with GitHub's labels.
  created(world, repo) {
    for (const label of DEFAULT_LABELS) addLabel(world, repo, { ...label, default: true });
  },
  routes: labelRoutes,
  permissions: labelPermissions,
  graphql: labelGraphql,
});
