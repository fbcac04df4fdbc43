import { defineKind } from "../kind.js";
import { auditGists } from "./plan.js";
import { gistsSection } from "./settings.js";

/** Audit of the authenticated user's gists (`audits: {gists: …}`): reported, never changed. */
export const gistKind = defineKind({
  name: "gist",
  section: {
    spec: gistsSection,
    plan: async ({ reader, entry }) => ({ changes: await auditGists(reader, entry) }),
  },
});
