import type { ListingDetails } from "@/lib/facts/load-facts";

/** A listing with nothing but its id and folded name: the card tests vary the facts, not the listing. */
export const BARE_LISTING: ListingDetails = {
  id: 1,
  title: null,
  description: null,
  website_url: null,
  status_message: null,
  published_at: null,
  registry_updated_at: null,
  delisted_at: null,
  name_fold: "weathermcp",
};
