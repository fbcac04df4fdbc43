import { conformance } from "./conformance.js";

conformance("actions");
