import { attached } from "../../core/attached.js";
import type { Repository } from "../world/records.js";

/** A repository's GitHub Pages site: built from a branch (legacy) or by a workflow. */
export interface PagesSite {
  build_type: "legacy" | "workflow";
  source: { branch: string; path: "/" | "/docs" } | null;
  cname: string | null;
  https_enforced: boolean;
}

/** Each repository's site, when it has one. */
export const pagesOf = attached((_repo: Repository) => ({
  site: undefined as PagesSite | undefined,
}));
