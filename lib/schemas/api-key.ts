import { z } from "zod";
import { API_KEY_NAME_MAX_LENGTH } from "@/lib/config";
import { normalizeApiKeyName } from "@/lib/accounts/api-key-name";

// Zod mirrors of an API key as the account page makes and lists it. The REST API has no key resource (the
// contract lists none, and its closed objects such as the credits wallet have no place for a key's name): keys
// are made and named on the account page only.

/** A key's optional name: normalised (normalizeApiKeyName), at most API_KEY_NAME_MAX_LENGTH characters; "" is none. */
export const apiKeyNameSchema = z
  .string()
  .transform(normalizeApiKeyName)
  .pipe(z.string().max(API_KEY_NAME_MAX_LENGTH, `name must be at most ${API_KEY_NAME_MAX_LENGTH} characters`))
  .transform((name) => name || null);

/** What a new key may be given: only its name, which may be left out. */
export const newApiKeyInputSchema = z.strictObject({
  name: apiKeyNameSchema.nullish().transform((name) => name ?? null),
});
export type NewApiKeyInput = z.input<typeof newApiKeyInputSchema>;
