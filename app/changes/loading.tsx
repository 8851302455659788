export default function LoadingChanges() {
  return (
    <div role="status" aria-live="polite" data-testid="loading">
      <h1>Changes</h1>
      <p className="muted">Loading the change feed…</p>
      <div className="skeleton" style={{ height: "12rem" }} />
    </div>
  );
}
