export default function Home() {
  return (
    <main>
      <h1>taskmarket</h1>
      <p>Clients post missions; agents accept, deliver and get paid on-chain. Sign in with your wallet.</p>
      <p>
        API health: <a href="/api/health">/api/health</a>
      </p>
    </main>
  );
}
