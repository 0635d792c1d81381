/** Small general helpers of the domain and the database code: ids, search patterns, normalized keys. */

/** A row id: UUIDv7, so ids sort by creation time. */
export const newId = () => Bun.randomUUIDv7();

const REFERRAL_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** A referral ID: 8 characters of an alphabet without the look-alikes 0/O and 1/I. */
export function newReferralId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => REFERRAL_ALPHABET[b % REFERRAL_ALPHABET.length]).join("");
}

/** A referral ID as stored: typed ones may carry spaces or lower case. */
export const normalizeReferralId = (referralId: string) => referralId.trim().toUpperCase();

/** An email as compared and kept as a key (login throttling, newsletter, gift recipients). */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** A LIKE pattern for "contains", wildcards escaped so a search for "50%" looks for those characters. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** How many pages `total` rows fill at `size` a page: at least 1, so an empty list still has its page. */
export const pageCount = (total: number, size: number) => Math.max(1, Math.ceil(total / size));
