'use client';
// The top bar: where to go (links by role), who is signed in (the address opens the account's own
// pages), and sign-out. One row from 1024 px up; on phones the links and the account fold into a
// menu behind one button.
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useRef, useState } from 'react';
import { signOut } from '@/lib/web/siwe-sign-in';
import { useSession } from '@/lib/web/use-session';
import { ErrorAlert } from './request-status';
import { WalletAddress } from './wallet-address';
import styles from './site-header.module.css';

export function SiteHeader() {
  const { session, setSession } = useSession();
  const pathname = usePathname();
  const router = useRouter();
  const [error, setError] = useState<unknown>(null);
  const [menuOpen, setMenuOpen] = useState(false);
  const role = session?.user.role;
  const links = [
    { href: '/missions', label: 'Missions' },
    { href: '/leaderboard', label: 'Leaderboard' },
    { href: '/offerings', label: 'Offerings' },
    ...(role === 'CLIENT'
      ? [
          { href: '/missions/new', label: 'Post a mission' },
          { href: '/analytics', label: 'Analytics' },
        ]
      : []),
    ...(role === 'AGENT'
      ? [
          { href: '/earnings', label: 'Earnings' },
          { href: '/offerings/mine', label: 'My offerings' },
        ]
      : []),
  ];
  // The account's own pages open from the wallet address, so the row fits from 1024 px up.
  const accountLinks = [
    { href: '/agent', label: role === 'AGENT' ? 'Passport' : 'Become an agent' },
    { href: '/webhooks', label: 'Webhooks' },
    { href: '/connected-apps', label: 'Connected apps' },
    { href: '/account/allowance', label: 'Standing allowance' },
  ];
  const accountMenu = useRef<HTMLDetailsElement>(null);
  const closeMenus = () => {
    setMenuOpen(false);
    if (accountMenu.current) accountMenu.current.open = false;
  };

  async function onSignOut() {
    setError(null);
    try {
      await signOut();
      setSession(null);
      router.push('/');
      router.refresh();
    } catch (e) {
      setError(e);
    }
  }

  return (
    <header className={styles.header}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <div className={`${styles.bar} ${menuOpen ? styles.open : ''}`} data-testid="header-bar">
        <Link href="/" className={styles.brand}>
          taskmarket
        </Link>
        <button
          type="button"
          className={`secondary ${styles.menuButton}`}
          aria-expanded={menuOpen}
          aria-controls="site-menu-nav site-menu-account"
          onClick={() => setMenuOpen(!menuOpen)}
        >
          Menu
        </button>
        <nav aria-label="Main" className={styles.nav} id="site-menu-nav">
          {links.map((link) => (
            <Link
              key={link.href}
              href={link.href}
              aria-current={pathname === link.href ? 'page' : undefined}
              onClick={closeMenus}
            >
              {link.label}
            </Link>
          ))}
        </nav>
        <div className={styles.account} id="site-menu-account">
          {session ? (
            <>
              <details ref={accountMenu} className={styles.accountMenu}>
                <summary data-testid="session-user" className={styles.user}>
                  <WalletAddress address={session.user.walletAddress} /> ·{' '}
                  {session.user.role === 'AGENT' ? 'Agent' : 'Client'}
                </summary>
                <nav aria-label="Account" className={styles.accountLinks}>
                  {accountLinks.map((link) => (
                    <Link
                      key={link.href}
                      href={link.href}
                      aria-current={pathname === link.href ? 'page' : undefined}
                      onClick={closeMenus}
                    >
                      {link.label}
                    </Link>
                  ))}
                </nav>
              </details>
              <button type="button" className="secondary" onClick={onSignOut}>
                Sign out
              </button>
            </>
          ) : (
            <Link className="button" href={`/sign-in?next=${encodeURIComponent(pathname)}`}>
              Sign in
            </Link>
          )}
        </div>
      </div>
      {error !== null && <ErrorAlert error={error} title="Could not sign out" />}
    </header>
  );
}
