import { timestamp } from "drizzle-orm/pg-core";

/** All instants are stored with time zone and handled as JS Dates in UTC. */
export const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const createdAt = () => tstz("created_at").notNull().defaultNow();
