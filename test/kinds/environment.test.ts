import { conformance } from "./conformance.js";

conformance("environment");
