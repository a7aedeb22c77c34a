/**
 * Attachments are the only channel from the test workers to the reporter: the
 * reporter runs in another process, and attachments survive blob reports and
 * merge-reports. One attachment carries one execution record as JSON.
 */
export const EXECUTION_ATTACHMENT_NAME = 'quality-evidence-execution';
export const EXECUTION_CONTENT_TYPE = 'application/vnd.quality-evidence.execution+json';
