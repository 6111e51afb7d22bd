import { authApi, isStaff } from '@ctf/contract';
import { useState } from 'react';
import { Badge, Container, Nav, Navbar } from 'react-bootstrap';
import { NavLink, useLocation, useNavigate } from 'react-router';
import { useUnreadAnnouncements } from '../lib/announcements';
import { callApi } from '../lib/api';
import { useCurrentUser, useMarkSignedOut } from '../lib/auth';
import { useSiteInfo } from '../lib/site-info';
import { useHydrated } from '../lib/hydration';
import { useAccent, useTheme } from '../lib/theme';
import { DEFAULT_SITE_NAME } from './page-title';

/** docs/product.md §2 navigation bar: links by session and role; Tools and Community open a new tab. */
export function NavBar() {
  const me = useCurrentUser();
  const site = useSiteInfo().data;
  useAccent(site?.accent);

  const loggedIn = !!me.data;
  const navigate = useNavigate();
  const markSignedOut = useMarkSignedOut();
  // The phone menu is open only on the page where it was opened: any navigation closes it. It is
  // controlled so the toggle can tell screen readers whether it is open (aria-expanded).
  const location = useLocation();
  const [openAt, setOpenAt] = useState<string | null>(null);
  const expanded = openAt === location.key;
  const { unread } = useUnreadAnnouncements();

  async function logout() {
    try {
      await callApi(authApi.logout);
    } catch {
      console.error('Logout failed');
    }
    markSignedOut();
    void navigate('/login');
  }

  return (
    <Navbar
      expand="lg"
      bg="dark"
      data-bs-theme="dark"
      className="mb-3"
      collapseOnSelect
      expanded={expanded}
      onToggle={(open: boolean) => setOpenAt(open ? location.key : null)}
    >
      <Container>
        <Navbar.Brand as={NavLink} to="/">
          {site?.logoUrl && <img src={site.logoUrl} alt="" height={28} className="me-2 align-text-top" />}
          {site?.name ?? DEFAULT_SITE_NAME}
        </Navbar.Brand>
        <Navbar.Toggle aria-controls="main-nav" aria-label="Toggle navigation" aria-expanded={expanded} />
        <Navbar.Collapse id="main-nav">
          <Nav className="me-auto" as="ul">
            <Nav.Item as="li">
              <Nav.Link as={NavLink} to="/" end>
                Home
              </Nav.Link>
            </Nav.Item>
            <Nav.Item as="li">
              <Nav.Link as={NavLink} to="/compete">
                Compete
              </Nav.Link>
            </Nav.Item>
            <Nav.Item as="li">
              <Nav.Link as={NavLink} to="/leaderboard">
                Leaderboard
              </Nav.Link>
            </Nav.Item>
            <Nav.Item as="li">
              <Nav.Link as={NavLink} to="/announcements">
                Announcements
                {unread > 0 && (
                  <Badge bg="danger" pill className="ms-1" data-testid="unread-announcements">
                    {unread}
                    <span className="visually-hidden"> unread</span>
                  </Badge>
                )}
              </Nav.Link>
            </Nav.Item>
            <Nav.Item as="li">
              <Nav.Link href="/tools" target="_blank" rel="noopener noreferrer">
                Tools
              </Nav.Link>
            </Nav.Item>
            <Nav.Item as="li">
              <Nav.Link href="/discord" target="_blank" rel="noopener noreferrer">
                Community
              </Nav.Link>
            </Nav.Item>
          </Nav>
          <Nav as="ul">
            {isStaff(me.data?.role) && (
              <Nav.Item as="li">
                <Nav.Link as={NavLink} to="/admin/panel">
                  Admin
                </Nav.Link>
              </Nav.Item>
            )}
            <ThemeToggle />
            {loggedIn ? (
              <>
                <Nav.Item as="li">
                  <Nav.Link as={NavLink} to="/profile">
                    Profile
                  </Nav.Link>
                </Nav.Item>
                <Nav.Item as="li">
                  <Nav.Link as="button" type="button" className="btn btn-link" onClick={() => void logout()}>
                    Logout
                  </Nav.Link>
                </Nav.Item>
              </>
            ) : (
              !me.isPending && (
                <Nav.Item as="li">
                  <Nav.Link as={NavLink} to="/login">
                    Login
                  </Nav.Link>
                </Nav.Item>
              )
            )}
          </Nav>
        </Navbar.Collapse>
      </Container>
    </Navbar>
  );
}

/** Light or dark, remembered in this browser (otherwise the system preference decides). */
function ThemeToggle() {
  const [theme, setTheme] = useTheme();
  // The server cannot know this browser's theme: a page it rendered is pressed once hydrated.
  const hydrated = useHydrated();
  const dark = hydrated && theme === 'dark';
  return (
    <Nav.Item as="li">
      <Nav.Link
        as="button"
        type="button"
        className="btn btn-link"
        aria-pressed={dark}
        onClick={() => setTheme(dark ? 'light' : 'dark')}
      >
        Dark theme
      </Nav.Link>
    </Nav.Item>
  );
}
