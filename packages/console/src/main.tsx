import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, getJson, simulatorKind } from './api';
import { CertificationPanel } from './certification-panel';
import { FaultControls, ReplayControls } from './controls';
import { LiveFeed, type FeedSnapshot } from './live-feed';
import { LiveView } from './live-view';
import { PostForm } from './post-form';
import { RaceBoard } from './race-board';
import type { RaceRef } from './race-index';
import { faultTransports, feedTransports } from './transports';
import type { TransportInfo } from '@racedata/core';
import type { CatalogChannel, UserInfo } from '../../control/src/wire';
import { UsersPanel } from './users-panel';
import './console.css';

const feed = new LiveFeed();

function App() {
  const [snapshot, setSnapshot] = useState<FeedSnapshot | undefined>(undefined);
  const [catalog, setCatalog] = useState<CatalogChannel[]>([]);
  const [users, setUsers] = useState<UserInfo[]>([]);
  // The simulator says which transports it has (GET /_sim/state); the page lists none of its own.
  const [transportList, setTransportList] = useState<TransportInfo[]>([]);
  const [loadError, setLoadError] = useState('');
  const [tab, setTab] = useState<'post' | 'controls'>('post');
  const [race, setRace] = useState<RaceRef | undefined>(undefined);

  useEffect(() => {
    const unsubscribe = feed.subscribe(setSnapshot);
    feed.start();
    const failed = (err: unknown) => setLoadError(err instanceof ApiError ? err.message : String(err));
    getJson<{ channels: CatalogChannel[] }>('/_sim/catalog').then((b) => setCatalog(b.channels), failed);
    getJson<{ users: UserInfo[] }>('/_sim/users').then((b) => setUsers(b.users), failed);
    getJson<{ transports: TransportInfo[] }>('/_sim/state').then(
      (b) => setTransportList(b.transports),
      failed,
    );
    return () => {
      unsubscribe();
      feed.stop();
    };
  }, []);
  const title = simulatorKind === 'legacy' ? 'Legacy simulator (XML, STOMP)' : 'JSON simulator';
  const state = snapshot?.state;
  const transports = useMemo(() => feedTransports(transportList), [transportList]);
  const faultTargets = useMemo(() => faultTransports(transportList), [transportList]);

  return (
    <>
      <header>
        <h1>
          racedata-sim console <span class="sub">{title}</span>
        </h1>
        <nav class="docs-nav" aria-label="Documentation">
          <a href="docs/" target="_blank" rel="noopener" id="docs-index">
            Docs
          </a>
          <a href="docs/console.md" target="_blank" rel="noopener" id="docs-console">
            Console guide
          </a>
        </nav>
        <span id="feed-status" class={`status ${snapshot?.status ?? 'connecting'}`} role="status">
          {snapshot?.status ?? 'connecting'}
        </span>
      </header>
      {loadError && (
        <p class="error banner" role="alert">
          {loadError}
        </p>
      )}
      <RaceBoard selected={race} onSelect={setRace} />
      <main>
        {snapshot && (
          <LiveView
            feed={snapshot}
            users={users}
            catalog={catalog}
            transports={transports}
            race={race}
            onClearRace={() => setRace(undefined)}
            onClear={() => feed.clear()}
          />
        )}
        <aside>
          {state?.certification && <CertificationPanel certification={state.certification} />}
          <UsersPanel users={users} state={state} stateAt={snapshot?.stateAt ?? 0} />
          <div class="tabs" role="tablist" aria-label="Actions">
            <button
              type="button"
              role="tab"
              id="tab-post"
              aria-selected={tab === 'post'}
              aria-controls="tabpanel"
              onClick={() => setTab('post')}
            >
              Post
            </button>
            <button
              type="button"
              role="tab"
              id="tab-controls"
              aria-selected={tab === 'controls'}
              aria-controls="tabpanel"
              onClick={() => setTab('controls')}
            >
              Replay and faults
            </button>
          </div>
          <div id="tabpanel" role="tabpanel" aria-labelledby={tab === 'post' ? 'tab-post' : 'tab-controls'}>
            {tab === 'post' ? (
              <PostForm catalog={catalog} />
            ) : (
              <>
                <ReplayControls replay={state?.replay} />
                <FaultControls state={state} users={users} transports={faultTargets} />
              </>
            )}
          </div>
        </aside>
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
