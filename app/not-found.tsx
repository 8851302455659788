export default function NotFound() {
  return (
    <>
      <h1>Not found</h1>
      <p>
        There is no page here. <a href="/">Search the catalog</a> for a server by name.
      </p>
    </>
  );
}
