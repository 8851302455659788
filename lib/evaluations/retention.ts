/** An authenticated caller's evaluation is kept this long after completion (contract). */
export const EVALUATION_RETENTION_DAYS = 90;
export const EVALUATION_RETENTION_MS = EVALUATION_RETENTION_DAYS * 86_400_000;
export const EVALUATION_LIST_LIMIT = 50;

export const retentionCutoff = (now: Date) => new Date(now.getTime() - EVALUATION_RETENTION_MS);
