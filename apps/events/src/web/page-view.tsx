/**
 * @module
 * Which component shows each route's page data.
 */
import type { PageData } from './page-data.ts';
import { LegacyPage } from './legacy-page.tsx';
import { renderConnectPage } from './pages/connect-page.ts';
import { EventPage } from './pages/event-page.tsx';
import { renderEventsPage } from './pages/events-page.ts';
import { HomePage } from './pages/home-page.tsx';
import { NotFoundPage } from './pages/not-found-page.tsx';
import { RegisterPage } from './pages/register-page.tsx';
import { renderRegistrationsPage } from './pages/registrations-page.ts';
import { renderSavedPage } from './pages/saved-page.ts';

/** The page component for `data.route`, given its data. */
export function PageView({ data }: { data: PageData }) {
  switch (data.route) {
    case 'home':
      return <HomePage />;
    case 'events':
      return <LegacyPage name="events" render={renderEventsPage} />;
    case 'event':
      return <EventPage data={data} />;
    case 'register':
      return <RegisterPage data={data} />;
    case 'registrations':
      return <LegacyPage name="registrations" render={renderRegistrationsPage} />;
    case 'saved':
      return <LegacyPage name="saved" render={renderSavedPage} />;
    case 'connect':
      return <LegacyPage name="connect" render={renderConnectPage} />;
    case 'not-found':
      return <NotFoundPage />;
  }
}
