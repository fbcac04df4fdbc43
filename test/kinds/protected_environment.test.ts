import { conformance } from "./conformance.js";

conformance("protected_environment");
