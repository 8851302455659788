/**
 * The query parameter that brings a refused post back to the audit page (middleware.ts): the page shows the
 * refusal as the line it shows for the API's own answer.
 */
export const AUDIT_REFUSED_PARAM = "refused";
