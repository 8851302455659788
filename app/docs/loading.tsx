export default function LoadingDocs() {
  return (
    <div role="status" aria-live="polite" data-testid="loading">
      <h1>API documentation</h1>
      <p className="muted">Loading the API description…</p>
      <div className="skeleton" style={{ height: "12rem" }} />
    </div>
  );
}
