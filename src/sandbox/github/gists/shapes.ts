import { nodeId, simpleUser } from "../world/shapes.js";
import type { Gist } from "./records.js";

type Json = Record<string, unknown>;

const LANGUAGES: Record<string, [string, string]> = {
  md: ["Markdown", "text/markdown"],
  sh: ["Shell", "application/x-sh"],
  json: ["JSON", "application/json"],
  yaml: ["YAML", "application/x-yaml"],
  yml: ["YAML", "application/x-yaml"],
  js: ["JavaScript", "application/javascript"],
  ts: ["TypeScript", "application/typescript"],
};

export function gist(base: string, value: Gist): Json {
  const url = `${base}/gists/${value.id}`;
  const files: Record<string, Json> = {};
  for (const [filename, file] of value.files) {
    const known = LANGUAGES[filename.split(".").pop() ?? ""];
    files[filename] = {
      filename,
      type: known?.[1] ?? "text/plain",
      language: file.language ?? known?.[0] ?? "Text",
      raw_url: `${base}/raw/${value.id}/${encodeURIComponent(filename)}`,
      size: Buffer.byteLength(file.content),
      encoding: "utf-8",
    };
  }
  return {
    url,
    forks_url: `${url}/forks`,
    commits_url: `${url}/commits`,
    id: value.id,
    node_id: nodeId("Gist", value.id),
    git_pull_url: `${base}/gist/${value.id}.git`,
    git_push_url: `${base}/gist/${value.id}.git`,
    html_url: `${base}/gist/${value.owner.login}/${value.id}`,
    files,
    public: value.public,
    created_at: value.created_at,
    updated_at: value.updated_at,
    description: value.description,
    comments: 0,
    comments_enabled: true,
    user: null,
    comments_url: `${url}/comments`,
    owner: simpleUser(base, value.owner),
    truncated: false,
  };
}
