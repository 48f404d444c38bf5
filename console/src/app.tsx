import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { AccountScreen } from './screens/account.js';
import { AdminHeroScreen } from './screens/admin-hero.js';
import { AdminMerchantsScreen } from './screens/admin-merchants.js';
import { AdminStageScreen } from './screens/admin-stage.js';
import { AdminStoreClientsScreen } from './screens/admin-store-clients.js';
import { BoardsScreen } from './screens/boards.js';
import { GamesScreen } from './screens/games.js';
import { GoodsScreen } from './screens/goods.js';
import { OrdersScreen } from './screens/orders.js';
import { PlayersScreen } from './screens/players.js';
import { MerchantScreen } from './screens/merchant.js';
import { ProjectsScreen } from './screens/projects.js';
import { SignIn } from './screens/sign-in.js';
import { SponsorshipScreen } from './screens/sponsorship.js';
import { TokensScreen } from './screens/tokens.js';
import { clientFor, forgetSession, keepSession, type Session, storedSession } from './session.js';

interface Screen {
  path: string;
  title: string;
  roles: readonly Session['role'][];
}

/** The screens, in the navigation's order: studios' (merchant accounts) and admins'. */
const screens: readonly Screen[] = [
  { path: 'merchant', title: 'Merchant', roles: ['merchant'] },
  { path: 'games', title: 'Games', roles: ['merchant'] },
  { path: 'projects', title: 'Projects and prices', roles: ['merchant'] },
  { path: 'orders', title: 'Orders and payments', roles: ['merchant'] },
  { path: 'players', title: 'Players', roles: ['merchant'] },
  { path: 'goods', title: 'Goods', roles: ['merchant'] },
  { path: 'boards', title: 'Boards and rewards', roles: ['merchant'] },
  { path: 'sponsorship', title: 'Sponsored claims', roles: ['merchant'] },
  { path: 'admin/merchants', title: 'Merchants', roles: ['admin'] },
  { path: 'admin/stage', title: 'Stage', roles: ['admin'] },
  { path: 'admin/store-clients', title: 'Store clients', roles: ['admin'] },
  { path: 'admin/hero', title: 'Hero game', roles: ['admin'] },
  { path: 'tokens', title: 'Tokens and sessions', roles: ['merchant', 'admin'] },
  { path: 'account', title: 'Account', roles: ['merchant', 'admin'] },
];

/** The screen the URL's fragment names (`#/games`), else the role's first. */
function useRoute(session: Session | undefined): Screen | undefined {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const changed = () => setHash(location.hash);
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  if (!session) return undefined;
  const allowed = screens.filter((screen) => screen.roles.includes(session.role));
  return allowed.find((screen) => `#/${screen.path}` === hash) ?? allowed[0];
}

export function App() {
  const [session, setSession] = useState(storedSession);
  const screen = useRoute(session);
  const api = useMemo(() => clientFor(session), [session]);
  const main = useRef<HTMLElement>(null);
  const [signingOut, setSigningOut] = useState(false);
  // On a narrow screen the sections fold behind a button; choosing one folds them again.
  const [menuOpen, setMenuOpen] = useState(false);

  // A new screen moves focus to its heading region, so a screen reader announces where the user is.
  useEffect(() => {
    setMenuOpen(false);
    main.current?.focus();
  }, [screen?.path]);
  useEffect(() => {
    if (screen) document.title = `${screen.title} · Console`;
  }, [screen]);

  const forget = () => {
    forgetSession();
    setSession(undefined);
    // The next sign-in starts on its role's first screen: the fragment goes, and the route reads that.
    history.replaceState(null, '', location.pathname);
    dispatchEvent(new HashChangeEvent('hashchange'));
  };
  /** Sign-out ends the account's console sessions on the service (a leaked copy of the token stops working too). */
  const signOut = async () => {
    setSigningOut(true);
    await api.POST('/merchant/tokens/revoke', { body: { tokens: 'console' } }).catch(() => undefined);
    setSigningOut(false);
    forget();
  };

  if (!session || !screen)
    return (
      <SignIn
        onSignedIn={(signedIn) => {
          keepSession(signedIn);
          setSession(signedIn);
        }}
      />
    );

  return (
    <>
      {/* A button, not a link: the fragment names the screen, so a `#main` link would change it. */}
      <button type="button" class="skip" onClick={() => main.current?.focus()}>
        Skip to content
      </button>
      <header>
        <p class="brand">Console</p>
        <p class="who">
          Signed in as <span class="email">{session.email}</span> ({session.role === 'admin' ? 'admin' : 'studio'})
        </p>
        <button type="button" class="sign-out" onClick={signOut} disabled={signingOut} aria-busy={signingOut ? 'true' : undefined}>
          {signingOut ? 'Signing out…' : 'Sign out'}
        </button>
      </header>
      <nav aria-label="Console sections">
        <button type="button" class="menu" aria-expanded={menuOpen ? 'true' : 'false'} aria-controls="sections" onClick={() => setMenuOpen(!menuOpen)}>
          Sections<span class="visually-hidden">, now</span>: {screen.title}
        </button>
        <ul id="sections" class={menuOpen ? 'open' : undefined}>
          {screens
            .filter((s) => s.roles.includes(session.role))
            .map((s) => (
              <li key={s.path}>
                <a href={`#/${s.path}`} aria-current={s.path === screen.path ? 'page' : undefined} onClick={() => setMenuOpen(false)}>
                  {s.title}
                </a>
              </li>
            ))}
        </ul>
      </nav>
      <main id="main" ref={main} tabIndex={-1} aria-labelledby="screen-title">
        <h1 id="screen-title">{screen.title}</h1>
        {screen.path === 'merchant' && <MerchantScreen api={api} />}
        {screen.path === 'games' && <GamesScreen api={api} />}
        {screen.path === 'projects' && <ProjectsScreen api={api} />}
        {screen.path === 'orders' && <OrdersScreen api={api} />}
        {screen.path === 'players' && <PlayersScreen api={api} />}
        {screen.path === 'goods' && <GoodsScreen api={api} />}
        {screen.path === 'boards' && <BoardsScreen api={api} />}
        {screen.path === 'sponsorship' && <SponsorshipScreen api={api} />}
        {screen.path === 'tokens' && <TokensScreen api={api} onSignedOutEverywhere={forget} />}
        {screen.path === 'account' && (
          <AccountScreen
            api={api}
            session={session}
            onSession={(renewed) => {
              keepSession(renewed);
              setSession(renewed);
            }}
          />
        )}
        {screen.path === 'admin/merchants' && <AdminMerchantsScreen api={api} />}
        {screen.path === 'admin/stage' && <AdminStageScreen api={api} />}
        {screen.path === 'admin/store-clients' && <AdminStoreClientsScreen api={api} />}
        {screen.path === 'admin/hero' && <AdminHeroScreen session={session} />}
      </main>
    </>
  );
}
