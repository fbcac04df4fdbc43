/**
 * How a repository's GitHub Pages site is written: `pages: {build_type, source, cname,
 * https_enforced}`, or `null` for no site (docs/kinds.md, "GitHub Pages").
 */
import * as z from "zod";
import { closed, orNull } from "../../config/fields.js";
import { defineSetting, type RuleProblem } from "../../config/spec.js";

const site = closed({
  build_type: z
    .enum(["legacy", "workflow"])
    .optional()
    .describe(
      "legacy (default with a source): built from a branch; workflow: built by a GitHub Actions workflow.",
    ),
  source: closed({
    branch: z.string().min(1).describe("The branch the site is published from."),
    path: z.enum(["/", "/docs"]).optional().describe("/ (default) or /docs."),
  })
    .optional()
    .describe("Where a legacy build's files are: a branch and / or /docs."),
  cname: orNull(z.string().min(1)).optional().describe("The custom domain; null for none."),
  https_enforced: z.boolean().optional().describe("Whether HTTP is redirected to HTTPS."),
});

const pagesSchema = orNull(site).describe(
  "The repository's GitHub Pages site: its build and source, custom domain and HTTPS; null: no site (deleted with --allow-delete).",
);

export type PagesSettings = z.output<typeof pagesSchema>;
export type PagesSite = z.output<typeof site>;

/** A legacy build needs its source; a workflow build has none. */
function pagesRules(value: PagesSettings): RuleProblem[] {
  if (value === null) return [];
  const type = value.build_type ?? "legacy";
  if (type === "legacy" && value.source === undefined) {
    return [{ path: [], message: "a legacy Pages build needs a source (or build_type: workflow)" }];
  }
  if (type === "workflow" && value.source !== undefined) {
    return [
      {
        path: ["source"],
        message: "a workflow build publishes what its workflow uploads: no source",
      },
    ];
  }
  return [];
}

export const pagesSetting = defineSetting({
  key: "pages",
  schema: pagesSchema,
  rules: pagesRules,
  defines: () => [{ id: "pages", path: [], what: "the Pages site" }],
  print: (value) => [
    {
      kind: "pages",
      name: "site",
      path: [],
      ...(value !== null && value.build_type === undefined
        ? { defaults: [["build_type", "legacy"]] }
        : {}),
    },
  ],
});
