// The two tabs of /app/connections (spec 000 §2): the URL decides which is selected, and choosing a tab
// navigates, so a tab can be bookmarked and Back returns to the previous one. Fluent's TabList gives the
// arrow-key navigation of a tablist.
import { Tab, TabList, Title2, makeStyles, tokens } from '@fluentui/react-components';
import { useIntl } from 'react-intl';
import { useLocation } from 'wouter';

export type ConnectionsTab = 'users' | 'groups';

const useStyles = makeStyles({
  header: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  tabs: { overflowX: 'auto' },
});

export function ConnectionsTabs({ selected }: { selected: ConnectionsTab }) {
  const styles = useStyles();
  const intl = useIntl();
  const [, navigate] = useLocation();
  return (
    <div className={styles.header}>
      <Title2 as="h1" id="connections-heading">
        {intl.formatMessage({ id: 'connections.users.title' })}
      </Title2>
      <TabList
        className={styles.tabs}
        selectedValue={selected}
        aria-label={intl.formatMessage({ id: 'connections.tabs.label' })}
        onTabSelect={(_event, data) => {
          if (data.value !== selected) navigate(`/connections/${String(data.value)}`);
        }}
      >
        <Tab value="users">{intl.formatMessage({ id: 'connections.tabs.users' })}</Tab>
        <Tab value="groups">{intl.formatMessage({ id: 'connections.tabs.groups' })}</Tab>
      </TabList>
    </div>
  );
}
