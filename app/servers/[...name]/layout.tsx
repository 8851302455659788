import { notFound } from "next/navigation";
import { getDb } from "@/lib/db/client";
import { serverExists } from "@/lib/services/get-server-page";
import { nameFromSegments } from "./server-name";

/**
 * An unknown name is a real 404: checked here, above the page's loading boundary, because once the
 * loading state has streamed the status can no longer change.
 */
export default async function ServerLayout({ children, params }: { children: React.ReactNode; params: Promise<{ name: string[] }> }) {
  if (!(await serverExists(await getDb(), nameFromSegments((await params).name)))) notFound();
  return children;
}
