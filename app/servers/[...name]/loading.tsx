export default function LoadingServer() {
  return (
    <div role="status" aria-live="polite" data-testid="loading">
      <p className="muted">Loading the evidence card…</p>
      <div className="skeleton" style={{ width: "70%", height: "2.25rem" }} />
      <div className="skeleton" style={{ width: "40%" }} />
      <div style={{ display: "grid", gridTemplateColumns: "repeat(auto-fit, minmax(14rem, 1fr))", gap: "0.75rem" }}>
        <div className="skeleton" style={{ height: "6rem" }} />
        <div className="skeleton" style={{ height: "6rem" }} />
        <div className="skeleton" style={{ height: "6rem" }} />
      </div>
      <div className="skeleton" style={{ height: "10rem" }} />
    </div>
  );
}
