import type { Metadata, Viewport } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "mcp-preflight", template: "%s · mcp-preflight" },
  description: "Public-evidence preflight decisions for MCP servers: PASS, REVIEW or BLOCK under an immutable policy, with the facts behind them.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>
        <a className="skip" href="#main">
          Skip to content
        </a>
        <header className="site">
          <a className="brand" href="/">
            mcp-preflight
          </a>
          <nav aria-label="Main">
            <a href="/">Search</a>
            <a href="/policies">Policies</a>
            <a href="/changes">Changes</a>
            <a href="/audit">Config audit</a>
            <a href="/watches">Watches</a>
            <a href="/docs">API docs</a>
            <a href="/account">Account</a>
          </nav>
        </header>
        <main id="main">{children}</main>
        <footer className="site">
          A PASS is a public-evidence policy result, not a security finding, not an install authorization and not a sandbox.
        </footer>
      </body>
    </html>
  );
}
