import { conformance } from "./conformance.js";

conformance("gitlab_hook");
