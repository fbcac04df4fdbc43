import { conformance } from "./conformance.js";

conformance("gitlab_deploy_key");
