import { conformance } from "./conformance.js";

conformance("secret");
