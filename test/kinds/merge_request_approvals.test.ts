import { conformance } from "./conformance.js";

conformance("merge_request_approvals");
