/** Business constants of spec 03 §9. */
/** What a form shows under a required field left blank. */
export const REQUIRED_MESSAGE = 'This field is required';
export const TEXT_MEDIUM = 255;
export const TEXT_LARGE = 6000;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 250;
export const IDLE_LOGOUT_MS = 900_000;
export const IDLE_WARNING_MS = 120_000;
export const IDLE_COUNTDOWN_TICK_MS = 50;
export const CLAIM_POLL_MS = 10_000;
export const MEDICAL_INFO_CLAIM_RENEW_MS = 30_000;
export const CLAIM_DEFAULT_EXTEND_SECONDS = 60;
export const DEFAULT_DIVISION_SCORE = 70;
export const MAX_PAGER_PAGES = 7;
export const SIMPLE_LIST_PAGE_SIZE = 10;
export const DEFAULT_PAGE_SIZE = 25;
/** Change logs and the placement log page by 10 (spec 01 §9 "Log page size: 10"). */
export const LOG_PAGE_SIZE = 10;
export const UPLOAD_MAX_BYTES = 20_971_520;
export const TOAST_AUTO_CLOSE_MS = 10_000;
export const LAST_LOGIN_WARNING_DAYS = 90;
export const LAST_LOGIN_DANGER_DAYS = 180;
export const USER_SEARCH_MIN_CHARS = 3;
/** Failed password attempts before the account is locked (passwordLockedOut). */
export const DEFAULT_LOCKOUT_MAX_FAILURES = 5;
/** Headers of the coded-error protocol (spec 03 §8). */
export const ERROR_HEADER = 'x-error';
export const CORRELATION_ID_HEADER = 'x-correlation-id';
/** A 403 carrying this header means the access token was revoked: renew once and retry. */
export const TOKEN_REVOKED_HEADER = 'x-token-revoked';
/** SMS notifications "for the next N hours": the most hours a role may choose (spec 03 §9 gives no values). */
export const SMS_HOURS_LIMIT_ITP = 12;
export const SMS_HOURS_LIMIT_PROVIDER = 24;
/** User CSV import: most data rows per file (spec 03 §5 "size limit 100"). */
export const USER_IMPORT_MAX_ROWS = 100;
/** Inactivity lock: days without a sign-in after which an account is locked (default; env INACTIVITY_LOCK_DAYS). */
export const INACTIVITY_LOCK_DAYS_DEFAULT = 90;
/** Avatar sizes in px (spec 03 §9). */
export const AVATAR_SIZE = { sm: 34, md: 50, lg: 183, list: 35 } as const;
/** Spec 02 §9: a facility user who joined the video call is signed out this long after. */
export const FACILITY_VIDEO_CALL_LOGOUT_MS = 2_000;
