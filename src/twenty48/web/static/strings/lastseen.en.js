export default {
  lastSeen: "Last seen here: may not be current",
};
