export default function ServerNotFound() {
  return (
    <>
      <h1>Server not in the catalog</h1>
      <p>
        No listed or delisted server has exactly this name. Names are exact and case-sensitive (<code>io.github.owner/name</code>). A missing
        row is not a claim that a vendor has no server anywhere.
      </p>
      <p>
        <a href="/">Search the catalog</a> for it by name, title or description.
      </p>
    </>
  );
}
