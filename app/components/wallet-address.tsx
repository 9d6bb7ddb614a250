// A wallet address, shortened for the eye and complete for screen readers and copy-paste.
export function WalletAddress({ address }: { address: string }) {
  const short = `${address.slice(0, 6)}…${address.slice(-4)}`;
  return (
    <span className="mono" title={address}>
      <span aria-hidden="true">{short}</span>
      <span className="visually-hidden">{address}</span>
    </span>
  );
}
