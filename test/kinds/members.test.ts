import { conformance } from "./conformance.js";

conformance("members");
