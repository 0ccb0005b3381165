/**
 * @module
 * Which component shows each route's page data.
 */
import type { PageData } from './page-data.ts';
import { AccountPage } from './pages/account-page.tsx';
import { ActivityPage } from './pages/activity-page.tsx';
import { ConnectPage } from './pages/connect-page.tsx';
import { ConsentPage } from './pages/consent-page.tsx';
import { EventPage } from './pages/event-page.tsx';
import { EventsPage } from './pages/events-page.tsx';
import { HomePage } from './pages/home-page.tsx';
import { NotFoundPage } from './pages/not-found-page.tsx';
import { RegisterPage } from './pages/register-page.tsx';
import { RegistrationsPage } from './pages/registrations-page.tsx';
import { SavedPage } from './pages/saved-page.tsx';
import { SignInPage } from './pages/sign-in-page.tsx';

/** The page component for `data.route`, given its data. */
export function PageView({ data }: { data: PageData }) {
  switch (data.route) {
    case 'home':
      return <HomePage />;
    case 'events':
      return <EventsPage data={data} />;
    case 'event':
      return <EventPage data={data} />;
    case 'register':
      return <RegisterPage data={data} />;
    case 'registrations':
      return <RegistrationsPage data={data} />;
    case 'saved':
      return <SavedPage data={data} />;
    case 'connect':
      return <ConnectPage data={data} />;
    case 'signin':
    case 'signup':
      return <SignInPage data={data} />;
    case 'account':
      return <AccountPage data={data} />;
    case 'activity':
      return <ActivityPage data={data} />;
    case 'consent':
      return <ConsentPage data={data} />;
    case 'not-found':
      return <NotFoundPage />;
  }
}
