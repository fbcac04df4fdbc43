import * as z from "zod";

/** GitHub's Base Gist, as far as the audit reads it. */

const account = z.looseObject({ login: z.string().optional() }).nullish();

// `public` decides the finding: a gist without it is not the Base Gist the spec defines, and is an
// error rather than taken for a secret one.
export const readGist = z.looseObject({
  id: z.string(),
  public: z.boolean(),
  description: z.string().nullish(),
  updated_at: z.string().optional(),
  owner: account,
  user: account,
  files: z.record(z.string(), z.unknown()).optional(),
});

export function ownerOf(gist: z.infer<typeof readGist>): string | undefined {
  return gist.owner?.login ?? gist.user?.login;
}
