import { afterAll } from "vitest";
import { closeDb } from "@/lib/db/client";
import { configureTestDatabase } from "./db";

await configureTestDatabase();

afterAll(async () => {
  await closeDb();
});
