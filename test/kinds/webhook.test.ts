import { conformance } from "./conformance.js";

conformance("webhook");
