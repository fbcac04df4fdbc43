import { conformance } from "./conformance.js";

conformance("deploy_key");
